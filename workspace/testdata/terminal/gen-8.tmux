80 24 0 0
ü é語日本üalpha日本 █ 

[38;5;3m█[38;5;243mppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp

[39malpha - wrap中文é 中文語alphawrap beta-hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh
hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh






[38;5;243mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm

[41mwrap ███-語 stop alpha日本wrap wrapstopalpha x









