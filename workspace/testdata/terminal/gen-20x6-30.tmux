20 6 0 0

[46m  [4:3m中文 éb[45mü wrapwrapx
中文ü alpha ü wrap│ 
wrap alphastopbetabe
taü-[0m[39m[49m [4:3m[45m本│beta é vvvvv
vvvvvvvv[0m[39m[49m            
