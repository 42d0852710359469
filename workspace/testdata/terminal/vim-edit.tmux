80 24 20 22
line of text number 279
line of text number 280
line of text number 281
line of text number 282
line of text number 283
line of text number 284
line of text number 285
line of text number 286
line of text number 287
line of text number 288
line of text number 289
line of text number 290
line of text number 291
line of text number 292
line of text number 293
line of text number 294
line of text number 295
line of text number 296
line of text number 297
line of text number 298
line of text number 299
line of text number 300
new line typed in vim

