// Command pulumi-resource-kubernetes is the Pulumi Kubernetes provider, built from the
// pinned provider module. Upstream's cmd/pulumi-resource-kubernetes/main.go embeds
// schema-embed.json and terraform-mapping-embed.json, which are generated (go:generate)
// and git-ignored upstream, so the module zip lacks them. lab/build.sh generates the same
// files (from the committed schema.json and terraform-mapping.json in the module, with the
// schema's version set) into a build copy of this directory under the lab cache, next to
// this file, before building. Nothing generated is committed.
package main

import (
	_ "embed"

	"github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/provider"
	"github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version"
)

const providerName = "kubernetes"

//go:embed schema-embed.json
var pulumiSchema []byte

//go:embed terraform-mapping-embed.json
var terraformMapping []byte

func main() {
	provider.Serve(providerName, version.Version, pulumiSchema, terraformMapping)
}
