30 10 29 3


█alpha語 alpha 中文wrap │é alp
ha █ │ █alpha -wrap wrapwrap 
日本é





