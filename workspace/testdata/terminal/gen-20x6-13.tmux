20 6 0 0
[7m[44m-日本beta--█- ü日本-
[5m[91m█ 語│ü -stop[0m[39m[44m        

[5;7m[35m日[40mstop語-ü beta日本 
wrapbeta 

