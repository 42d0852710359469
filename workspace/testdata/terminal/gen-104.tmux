80 24 0 0
alpha stopwrapstop beta beta🙂betastop中文x日本 ü- ││ x中文 é aulau~
[48;5;87m [49m                                                                             [48;5;248mac
dx │ x█beta█ é 中文語[49mlphawrap█é 語 x-alphax é alpha█ü中文 alphastop









[48;5;87mmvam
[49m    [48;5;87m語beta中文 中文 日本x -wrapalphastop 


[49m                                         stop█stop │ é




                                                                              ab

  wrapx ü beta│█日本中文 - wrap
