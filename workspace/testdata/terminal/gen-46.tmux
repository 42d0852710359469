80 24 0 0
stopbeta中文alpha é stop - beta█xé█üwrap ü 中文é█ │ 







              [91m中文 x stop 日本 übeta 語stopstopü語








[39m         ü stop 
[30mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
中文 x éalphaü stopbetawrap █alpha日本é -alphaü 日本x[2méx 




