package kitty

// ListenOnFromConf is listenOnFromConf, for the fuzz test that holds it to
// setup.ReadConf (an external test: setup imports this package).
var ListenOnFromConf = listenOnFromConf
