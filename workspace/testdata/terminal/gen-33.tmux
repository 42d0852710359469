80 24 0 0
[4:2m[38;5;208m[41m│ stop│ 語wrapalpha- ü██x█ é 中文█語█ ü│ betaü日本語[0m[39m[49m     [4:2m[38;5;208m[41mộ












[0m[38;5;208m[49mx│ alpha 日本 wrapwrapmmmmmm[39metaxx -日本wrap stop│stopxé[41m                         
[49mp█wrap語 │ █

                  - é -ü中文 中文wrapwrap中文 中文ü


[38;5;208m[41m日[39m[49m           [4:2m[38;5;208m[41mx中文 éwrap █übeta




