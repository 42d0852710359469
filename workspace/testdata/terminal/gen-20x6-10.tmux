20 6 0 0
[47m   [9m[49m -█ █betax │[0m[39m[49m   w
mmmmmmmmmmmmmmmmmmmm
kkkkkkauxkku~-x-x 語a



