40 8 1 2
top
xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
Y





