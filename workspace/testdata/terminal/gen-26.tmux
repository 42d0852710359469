80 24 0 0
[38;2;113;83;76m█stopstopalpha wrap█wrap-stop [48;5;196mbetaalpha █beta-betaéstop- betaxé 中文 beta中文中[39m 























