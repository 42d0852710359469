20 6 0 0

[48;5;180mmmmmmmmmmmmmmmmmmmmm




