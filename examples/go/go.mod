module hookhost.example/go-policy

go 1.21

require hookhost/guest v0.0.0

replace hookhost/guest => ../../guest-sdk/go
