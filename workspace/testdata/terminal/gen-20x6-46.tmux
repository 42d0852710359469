20 6 0 0

    [91m中文 x stop 日本
 übeta 語stopstopü語

[39ma█xé█üwrap ü 中文é█ 
│ 
