80 24 0 0
[47m中文 stopxcccccccccccccccccccccccccccccccccccccta~xjtaa[49mü wrap中文é ü[47m            


[58;5;196mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
[0m[39m[49mbeta wrap                                                                     [47m[58;5;196mal
pha wrap é [0m[39m[40m文stop -alpha -ü-- stop












[47m[58;5;196mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap
[0m[39m[47mcd                                                          é 中文x alphaalpha中
文日本alpha█ │xx 語 beta stopübetaxalpha 
      [58;5;196mmk~~qm

