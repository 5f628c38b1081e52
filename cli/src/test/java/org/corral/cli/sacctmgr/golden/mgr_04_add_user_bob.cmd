/usr/bin/sacctmgr -i add user bob account=theory DefaultAccount=theory
