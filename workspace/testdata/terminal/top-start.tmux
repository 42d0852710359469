80 24 0 23
Tasks:[1m 124 [0m[39m[49mtotal,[1m   6 [0m[39m[49mrunning,[1m 118 [0m[39m[49msleeping,[1m   0 [0m[39m[49mstopped,[1m   0 [0m[39m[49mzombie
%Cpu(s):[1m 90.5 [0m[39m[49mus,[1m  8.6 [0m[39m[49msy,[1m  0.0 [0m[39m[49mni,[1m  0.0 [0m[39m[49mid,[1m  0.0 [0m[39m[49mwa,[1m  0.0 [0m[39m[49mhi,[1m  0.0 [0m[39m[49msi,[1m  0.9 [0m[39m[49mst 
MiB Mem :[1m  24105.6 [0m[39m[49mtotal,[1m  13989.7 [0m[39m[49mfree,[1m   1855.2 [0m[39m[49mused,[1m   8654.6 [0m[39m[49mbuff/cache     
MiB Swap:[1m      0.0 [0m[39m[49mtotal,[1m      0.0 [0m[39m[49mfree,[1m      0.0 [0m[39m[49mused.[1m  22250.3 [0m[39m[49mavail Mem 

[7m  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND    
[0m[39m[49m22955 root      20   0 1597732 355968  46536 S  80.3   1.4   0:02.37 npm insta+ 
[1m23522 root      20   0 2266652 404208 263156 R  29.5   1.6   0:00.48 link       
23237 root      20   0 2423368 796384 587460 R  26.2   3.2   0:01.37 link       
[0m[39m[49m23109 root      20   0 2396268 169424  76568 S  14.8   0.7   0:00.90 live.test  
[1m23461 root      20   0 1360420 122812  20636 R  11.5   0.5   0:00.29 compile    
23306 root      20   0 2320012 600204 397304 R   6.6   2.4   0:00.92 link       
[0m[39m[49m23004 root      20   0 1343756  61152  15672 S   1.6   0.2   0:00.44 go         
[1m23555 root      20   0 1283456  23552  12660 R   1.6   0.1   0:00.01 compile    
[0m[39m[49m    1 root      10 -10   53336  20864   6424 S   0.0   0.1   0:08.36 process_a+ 
    2 root      20   0       0      0      0 S   0.0   0.0   0:00.00 kthreadd   
    3 root      20   0       0      0      0 S   0.0   0.0   0:00.00 pool_work+ 
    4 root       0 -20       0      0      0 I   0.0   0.0   0:00.00 kworker/R+ 
    5 root       0 -20       0      0      0 I   0.0   0.0   0:00.00 kworker/R+ 
    6 root       0 -20       0      0      0 I   0.0   0.0   0:00.00 kworker/R+ 
    7 root       0 -20       0      0      0 I   0.0   0.0   0:00.00 kworker/R+ 
    8 root       0 -20       0      0      0 I   0.0   0.0   0:00.00 kworker/R+ 
   10 root       0 -20       0      0      0 I   0.0   0.0   0:01.08 kworker/0+ 

