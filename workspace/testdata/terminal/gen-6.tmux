80 24 0 0



mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm



















[38;5;21m[47m語日本ü中文wrap █語ü日本 -日本é中文é-üalpha 日本 é│stopü é日本 中文 
