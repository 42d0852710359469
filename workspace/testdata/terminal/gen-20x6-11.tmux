20 6 0 0
beta █ stopalphaé é 
wrap -éalphatakla~- 
é wrapwrap█alpha█wra
p語 文x中文alpha│ be
ta-│beta█beta wrapbe
ta
