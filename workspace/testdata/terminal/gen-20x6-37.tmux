20 6 0 0

cdyyyyyyy[40m█ ü 中文 █b
etabeta[49m [40mübetaé █ │
日
                 [4:3m-a[0m[39m[49m 
[4:3m[40m日本 wrap[0m[39m[40m           
