20 6 0 0
ü- stop│wrap█stop al
pha betaüalphap語█al
 

[40m中文éalpha日本日本éb
eta[49m                 
