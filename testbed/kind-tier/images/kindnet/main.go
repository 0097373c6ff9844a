// kindnet-standin: a small stand-in for kind's kindnetd (which cannot be had here).
//
// On its node it writes a ptp (ipMasq) + host-local + portmap CNI conflist for the node's
// podCIDR (read from its Node object) into /etc/cni/net.d, and keeps a route to every other
// node's podCIDR via that node's InternalIP. No NetworkPolicy, no IPv6, no masquerade rules of
// its own (ptp's ipMasq does that).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/vishvananda/netlink"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

const routeProto = netlink.RouteProtocol(77) // marks our routes, to find stale ones

func main() {
	nodeName := os.Getenv("NODE_NAME")
	if nodeName == "" {
		log.Fatal("NODE_NAME is not set")
	}
	cniDir := envOr("CNI_CONFIG_DIR", "/etc/cni/net.d")
	mtu := 1500
	cfg, err := rest.InClusterConfig()
	if err != nil {
		log.Fatalf("in-cluster config: %v", err)
	}
	// kind's "would you kindly patch this file" adds CONTROL_PLANE_ENDPOINT (host:port), so the
	// daemon need not wait for kube-proxy to serve the kubernetes Service address.
	if ep := os.Getenv("CONTROL_PLANE_ENDPOINT"); ep != "" {
		cfg.Host = "https://" + ep
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	factory := informers.NewSharedInformerFactory(client, 30*time.Second)
	nodes := factory.Core().V1().Nodes()
	kick := make(chan struct{}, 1)
	poke := func(any) {
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	if _, err := nodes.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: poke, UpdateFunc: func(_, n any) { poke(n) }, DeleteFunc: poke,
	}); err != nil {
		log.Fatal(err)
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	log.Printf("kindnet-standin on node %s: watching nodes", nodeName)

	tick := time.NewTicker(30 * time.Second)
	defer tick.Stop()
	for {
		if err := reconcile(nodes.Lister(), nodeName, cniDir, mtu); err != nil {
			log.Printf("reconcile: %v", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-kick:
		case <-tick.C:
		}
	}
}

func envOr(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}

func reconcile(l listers.NodeLister, self, cniDir string, mtu int) error {
	all, err := l.List(labels.Everything())
	if err != nil {
		return err
	}
	want := map[string]net.IP{} // podCIDR -> gateway
	for _, n := range all {
		cidrs := podCIDRs(n)
		if n.Name == self {
			if len(cidrs) == 0 {
				log.Printf("node %s has no podCIDR yet", self)
				continue
			}
			if err := writeConflist(cniDir, cidrs, mtu); err != nil {
				return err
			}
			continue
		}
		ip := internalIP(n)
		if ip == nil {
			continue
		}
		for _, c := range cidrs {
			if _, ipn, err := net.ParseCIDR(c); err == nil && (ipn.IP.To4() == nil) == (ip.To4() == nil) {
				want[ipn.String()] = ip
			}
		}
	}
	return syncRoutes(want)
}

func podCIDRs(n *corev1.Node) []string {
	if len(n.Spec.PodCIDRs) > 0 {
		return n.Spec.PodCIDRs
	}
	if n.Spec.PodCIDR != "" {
		return []string{n.Spec.PodCIDR}
	}
	return nil
}

func internalIP(n *corev1.Node) net.IP {
	for _, a := range n.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			if ip := net.ParseIP(a.Address); ip != nil && ip.To4() != nil {
				return ip
			}
		}
	}
	return nil
}

func writeConflist(dir string, cidrs []string, mtu int) error {
	var ranges [][]map[string]string
	for _, c := range cidrs {
		if _, ipn, err := net.ParseCIDR(c); err == nil && ipn.IP.To4() != nil {
			ranges = append(ranges, []map[string]string{{"subnet": ipn.String()}})
		}
	}
	conf := map[string]any{
		"cniVersion": "0.3.1",
		"name":       "kindnet",
		"plugins": []any{
			map[string]any{
				"type": "ptp", "ipMasq": true, "mtu": mtu,
				"ipam": map[string]any{
					"type": "host-local", "dataDir": "/run/cni-ipam-state",
					"routes": []any{map[string]string{"dst": "0.0.0.0/0"}},
					"ranges": ranges,
				},
			},
			map[string]any{"type": "portmap", "capabilities": map[string]bool{"portMappings": true}},
		},
	}
	b, err := json.MarshalIndent(conf, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "10-kindnet.conflist")
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return nil
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	log.Printf("wrote %s for %v", path, cidrs)
	return nil
}

func syncRoutes(want map[string]net.IP) error {
	have, err := netlink.RouteListFiltered(netlink.FAMILY_V4, &netlink.Route{Protocol: routeProto}, netlink.RT_FILTER_PROTOCOL)
	if err != nil {
		return fmt.Errorf("list routes: %w", err)
	}
	for _, r := range have {
		if r.Dst == nil {
			continue
		}
		if gw, ok := want[r.Dst.String()]; !ok || !gw.Equal(r.Gw) {
			if err := netlink.RouteDel(&r); err != nil {
				log.Printf("delete route %s: %v", r.Dst, err)
			} else {
				log.Printf("deleted route %s via %s", r.Dst, r.Gw)
			}
		}
	}
	for c, gw := range want {
		_, dst, _ := net.ParseCIDR(c)
		r := netlink.Route{Dst: dst, Gw: gw, Protocol: routeProto}
		exists := false
		for _, h := range have {
			if h.Dst != nil && h.Dst.String() == c && gw.Equal(h.Gw) {
				exists = true
			}
		}
		if exists {
			continue
		}
		if err := netlink.RouteReplace(&r); err != nil {
			log.Printf("route %s via %s: %v", c, gw, err)
			continue
		}
		log.Printf("route %s via %s", c, gw)
	}
	return nil
}
