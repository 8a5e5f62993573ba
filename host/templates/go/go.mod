module {{name}}

go 1.21

require hookhost/guest v0.0.0

// The hookhost guest SDK, vendored by `hookhost new` (hookhost {{version}}).
replace hookhost/guest => ./hookhost-guest
