20 6 0 0
[48;5;144m          [49m中文日本 x
 x[48;5;144m                  
mmmmmmmmmmmmm[41mé│wrapa
lphastop語beta 語 -s
top日本stop中文█ 語x
betaé日本alphawrap  
