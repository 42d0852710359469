80 24 0 0

[38;5;242m[40mbeta - 中文 │é 日本stop wrap betaalphawrap é[4m-日本 alpha │üuuuuuuuuuuuuuuuuuuuuuu
uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu█ 中文 alpha中文 é ébeta alph
aé │ alphax ộ




















