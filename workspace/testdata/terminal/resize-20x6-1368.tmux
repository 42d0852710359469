40 6 39 4
                   [41méwrap betaüé üstopx │
中文█

     日本█beta 日本 日本 übetaalphabeta│
x betastopwrap日本[49m [41m[58;5;196m█中文語betabetawrap█
中文日本 beta█中文 é
