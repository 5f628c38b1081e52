/usr/bin/sshare -o Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare
