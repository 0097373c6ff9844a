// etcd-args is not etcd: it stands at /usr/bin/etcd in the kind tier's clustermesh-apiserver
// image, rewrites every bracketed IPv4 address in its arguments ("https://[10.0.0.1]:2379" to
// "https://10.0.0.1:2379") and execs the real etcd (/usr/bin/etcd-server). Cilium 1.18's chart
// brackets the pod's IPv4 address in etcd's listen and advertise URLs; an etcd built with
// Go >= 1.26 refuses that ("invalid IP-literal"), upstream's (older Go) accepted it.
package main

import (
	"os"
	"regexp"
	"syscall"
)

const realEtcd = "/usr/bin/etcd-server"

var bracketedIPv4 = regexp.MustCompile(`\[([0-9]{1,3}(?:\.[0-9]{1,3}){3})\]`)

// rewrite returns args with every bracketed IPv4 address unbracketed.
func rewrite(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = bracketedIPv4.ReplaceAllString(a, "$1")
	}
	return out
}

func main() {
	args := append([]string{realEtcd}, rewrite(os.Args[1:])...)
	err := syscall.Exec(realEtcd, args, os.Environ())
	os.Stderr.WriteString("etcd-args: exec " + realEtcd + ": " + err.Error() + "\n")
	os.Exit(127)
}
