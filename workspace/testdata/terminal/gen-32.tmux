80 24 0 0




[34m日

[38;5;141m日
[39m│█ │alphaalpha - ü 語 betauuuuuuuuuuuuuubeta- alpha 語│














étt

