20 6 0 0




[4:2m[34mmmmmmmmmmmmmmmmmmmmm
語日本│中文 wrap
