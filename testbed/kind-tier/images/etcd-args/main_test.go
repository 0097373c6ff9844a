package main

import (
	"reflect"
	"testing"
)

func TestRewrite(t *testing.T) {
	in := []string{"--listen-client-urls=https://127.0.0.1:2379,https://[10.244.0.120]:2379", "--advertise-client-urls=https://[fd00::1]:2379", "--name=x"}
	want := []string{"--listen-client-urls=https://127.0.0.1:2379,https://10.244.0.120:2379", "--advertise-client-urls=https://[fd00::1]:2379", "--name=x"}
	if got := rewrite(in); !reflect.DeepEqual(got, want) {
		t.Fatalf("rewrite(%q) = %q, want %q", in, got, want)
	}
}
