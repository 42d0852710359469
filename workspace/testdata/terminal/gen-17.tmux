80 24 0 0
[48;5;91m                                                                               w
rap-é aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa中文語wrap │ alpha█é x alpha│ 






















