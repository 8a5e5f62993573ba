module hookhost/guest

go 1.21
