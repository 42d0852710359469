80 24 0 0
alpha█ 語beta│é  p │語betaxx -日本w│éx 日本日本 wrap 日本é語stop- 中文 █alphax中
          stop語alpha語wrapbeta│ stop│ 語wrap- ü██x█ é 中文█語█ ü│ betaü日本語






















