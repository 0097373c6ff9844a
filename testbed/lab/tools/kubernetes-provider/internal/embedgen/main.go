// Command embedgen does what upstream's cmd/pulumi-resource-kubernetes/generate.go does:
// it writes schema-embed.json (schema.json, compacted, with "version" set) and
// terraform-mapping-embed.json (terraform-mapping.json, compacted) into -out.
//
//	go run ./internal/embedgen -src <provider module>/cmd/pulumi-resource-kubernetes -out <dir> -version 4.25.0
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"log"
	"os"
	"path/filepath"
)

func main() {
	src := flag.String("src", "", "directory holding schema.json and terraform-mapping.json")
	out := flag.String("out", ".", "directory to write the *-embed.json files to")
	version := flag.String("version", "", "provider version to put into the schema (no leading v)")
	flag.Parse()
	if *src == "" || *version == "" {
		log.Fatal("embedgen: -src and -version are required")
	}

	var schema map[string]json.RawMessage
	readJSON(filepath.Join(*src, "schema.json"), &schema)
	v, err := json.Marshal(*version)
	if err != nil {
		log.Fatal(err)
	}
	schema["version"] = v
	writeJSON(filepath.Join(*out, "schema-embed.json"), schema)

	var mapping json.RawMessage
	readJSON(filepath.Join(*src, "terraform-mapping.json"), &mapping)
	var compact bytes.Buffer
	if err := json.Compact(&compact, mapping); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "terraform-mapping-embed.json"), compact.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

func readJSON(path string, v any) {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		log.Fatalf("embedgen: %s: %v", path, err)
	}
}

func writeJSON(path string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		log.Fatal(err)
	}
}
