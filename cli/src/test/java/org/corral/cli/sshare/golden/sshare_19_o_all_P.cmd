/usr/bin/sshare -a -P -o Account,Cluster,EffectvUsage,FairShare,GrpTRESMins,GrpTRESRaw,ID,LevelFS,NormShares,NormUsage,Partition,RawShares,RawUsage,TRESRunMins,User
