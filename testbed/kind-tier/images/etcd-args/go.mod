module iko-plus/etcd-args

go 1.24
