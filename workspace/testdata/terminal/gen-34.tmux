80 24 0 0


[46m                                 [4:2m[38;2;156;6;216mawn~jj
[39mé x語 日́[49müü│ █alpha語-éalpha│betaüalpha語 - 中文wrap│中文wrap█ alphax中文 [0m[39m[46m      
[4:2m中文 é üé中文語beta 日本 │- █ wrapbetaü語alpha- é 中文█ 語 alphawrap é語 uuuuuuu
uuuuuuuuuuuuuuuuuuuuuuddddddddddduuuuuuuuuuuuuuuuuuuuuuuuuuuu


[0m[39m[49m                                                                              [4:2m日
x














