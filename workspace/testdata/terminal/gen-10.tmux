80 24 0 0
[47m   [49m█beta[9m中文 -█ █betax │[0m[39m[49m                                                       
~~lm🙂l





mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
kkkkkkkkkkkkkkkkkkkauxkku~-x-x 語文                                             















