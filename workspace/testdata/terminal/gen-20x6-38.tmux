20 6 0 0
[38;2;8;201;135m-█語[39m[43m    [49m          [38;2;8;201;135mac
dstop[43metaalphawrapalp




