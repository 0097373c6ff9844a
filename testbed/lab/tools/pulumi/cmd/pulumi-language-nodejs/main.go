// Command pulumi-language-nodejs is a small Node.js language host for the lab.
//
// Upstream's language host lives in the module
// github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3, which has no tags, only
// pseudo-versions, and the module proxy this project can reach serves none of them (every
// version, and its version list, answers 403). Its implementation is all in package main, so
// there is nothing public to wrap. This is our own implementation of the parts of the
// LanguageRuntime gRPC service that `pulumi preview/up/destroy/refresh` and `pulumi about` use
// for a Node.js (TypeScript or JavaScript) program:
//
//   - Run: spawns `node [nodeargs] <@pulumi/pulumi/cmd/run> --monitor … <program>`, the same
//     entry point and flags the upstream host uses, with config in PULUMI_CONFIG and
//     PULUMI_CONFIG_SECRET_KEYS, and the runtime options typescript, tsconfig and nodeargs.
//   - GetRequiredPlugins: the resource plugins named by packages under node_modules whose
//     package.json has "pulumi": {"resource": true}.
//   - GetPluginInfo, Handshake, About, GetProgramDependencies, InstallDependencies (npm/yarn/pnpm
//     install).
//   - RunPlugin for policy packs (`pulumi preview --policy-pack <dir>`): runs
//     @pulumi/pulumi/cmd/run-policy-pack in the pack's folder, as upstream does.
//
// Everything else (code generation, packing, linking, templates, resource plugins written in
// Node.js) answers Unimplemented. Build it with
// -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.x.y (see lab/build.sh).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

const (
	// The module the upstream host runs; PULUMI_LANGUAGE_NODEJS_RUN_PATH overrides it, as upstream.
	defaultRunModule = "@pulumi/pulumi/cmd/run"
	// Exit code with which @pulumi/pulumi's run script says it already reported the error.
	exitedAfterUserActionableMessage = 32
	// The module that starts a policy pack, and the plugin kind the engine asks for it.
	runPolicyPackModule = "@pulumi/pulumi/cmd/run-policy-pack"
	policyPackKind      = "analyzer"
)

func main() {
	// The engine starts language plugins as `pulumi-language-nodejs [flags] <engine address>`.
	// Accept (and mostly ignore) any -flag or -flag=value, as plugin flags changed over time.
	var engineAddress, tracing string
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-version" || a == "--version":
			fmt.Println(version.Version)
			return
		case strings.HasPrefix(a, "-tracing=") || strings.HasPrefix(a, "--tracing="):
			tracing = a[strings.Index(a, "=")+1:]
		case (a == "-tracing" || a == "--tracing") && i+1 < len(args):
			i++
			tracing = args[i]
		case strings.HasPrefix(a, "-"):
			// -root=…, -typescript=…, etc.: the same information arrives in ProgramInfo.
		default:
			engineAddress = a
		}
	}

	host := &nodeLanguageHost{engineAddress: engineAddress, tracing: tracing}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "fatal: could not start language host RPC server: %v\n", err)
		os.Exit(1)
	}
	// Print the port so that the engine knows how to reach us.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "fatal: language host RPC stopped serving: %v\n", err)
		os.Exit(1)
	}
}

type nodeLanguageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	tracing       string
}

func (host *nodeLanguageHost) engine() string {
	host.mu.Lock()
	defer host.mu.Unlock()
	return host.engineAddress
}

func (host *nodeLanguageHost) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	host.mu.Lock()
	defer host.mu.Unlock()
	if req.GetEngineAddress() != "" {
		host.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (host *nodeLanguageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// runtimeOptions are the `runtime.options` of Pulumi.yaml that this host understands.
type runtimeOptions struct {
	typescript     bool
	tsconfig       string
	nodeargs       []string
	packagemanager string
}

func parseOptions(s *structpb.Struct) runtimeOptions {
	o := runtimeOptions{typescript: true}
	if s == nil {
		return o
	}
	m := s.AsMap()
	if v, ok := m["typescript"].(bool); ok {
		o.typescript = v
	}
	if v, ok := m["tsconfig"].(string); ok {
		o.tsconfig = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		o.nodeargs = strings.Fields(v)
	}
	if v, ok := m["packagemanager"].(string); ok {
		o.packagemanager = v
	}
	return o
}

func lookupNode() (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("could not find node on the $PATH: %w", err)
	}
	return node, nil
}

// resolveRunScript finds @pulumi/pulumi's run script the way Node would from dir.
func resolveRunScript(node, dir string) (string, error) {
	mod := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH")
	if mod == "" {
		mod = defaultRunModule
	}
	return resolveModule(node, dir, mod)
}

// resolveModule finds a module's entry file the way Node would from dir (so a policy pack in a
// sub-folder of a project uses the project's node_modules).
func resolveModule(node, dir, mod string) (string, error) {
	modJSON, err := json.Marshal(mod)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(node, "-e", fmt.Sprintf("console.log(require.resolve(%s))", modJSON))
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("it looks like the Pulumi SDK has not been installed in %s "+
			"(could not resolve %s; have you run npm install?): %w", dir, mod, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func (host *nodeLanguageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	// req.LoaderTarget and req.MapperTarget (schema loader / mapper servers) are not used by the
	// Node.js SDK, so they are ignored.
	info := req.GetInfo()
	opts := parseOptions(info.GetOptions())
	programDir := info.GetProgramDirectory()
	if programDir == "" {
		programDir = req.GetPwd()
	}
	pwd := req.GetPwd()
	if pwd == "" {
		pwd = programDir
	}

	node, err := lookupNode()
	if err != nil {
		return nil, err
	}
	runScript, err := resolveRunScript(node, programDir)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	args := append([]string{}, opts.nodeargs...)
	args = append(args, runScript)
	flag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name+"="+value)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", host.engine())
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("root-directory", info.GetRootDirectory())
	flag("stack", req.GetStack())
	flag("pwd", pwd)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		flag("parallel", fmt.Sprint(req.GetParallel()))
	}
	flag("tracing", host.tracing)
	program := info.GetEntryPoint()
	if program == "" {
		program = req.GetProgram()
	}
	if program == "" {
		program = "."
	}
	args = append(args, program)
	args = append(args, req.GetArgs()...)

	configJSON, err := json.Marshal(orEmpty(req.GetConfig()))
	if err != nil {
		return nil, fmt.Errorf("failed to serialize configuration: %w", err)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("failed to serialize secret configuration keys: %w", err)
	}

	env := os.Environ()
	env = append(env,
		"PULUMI_CONFIG="+string(configJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON),
		fmt.Sprintf("PULUMI_NODEJS_TYPESCRIPT=%t", opts.typescript),
	)
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = pwd
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitedAfterUserActionableMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{
			Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err),
		}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// RunPlugin runs a plugin written in Node.js. Only policy packs (kind "analyzer") are
// supported, the way upstream's host starts them: `node [nodeargs]
// <@pulumi/pulumi/cmd/run-policy-pack> <args…> <policy pack dir>` in the policy pack's folder,
// where args is the engine address (plus any tracing/logging flags the engine adds). The
// policy pack (@pulumi/policy) prints its gRPC port on stdout, which reaches the engine through
// the RunPlugin stream. The process ends when the engine cancels the stream.
func (host *nodeLanguageHost) RunPlugin(
	req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer,
) error {
	if req.GetKind() != policyPackKind {
		return status.Errorf(codes.Unimplemented,
			"this lab language host runs only policy packs (kind %q), not %q plugins", policyPackKind, req.GetKind())
	}
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	info := req.GetInfo()
	dir := info.GetProgramDirectory()
	opts := parseOptions(info.GetOptions())
	node, err := lookupNode()
	if err != nil {
		return err
	}
	script, err := resolveModule(node, dir, runPolicyPackModule)
	if err != nil {
		return err
	}
	args := append([]string{}, opts.nodeargs...)
	args = append(args, script)
	args = append(args, req.GetArgs()...)
	args = append(args, dir)

	env := append([]string{}, req.GetEnv()...)
	env = append(env, fmt.Sprintf("PULUMI_NODEJS_TYPESCRIPT=%t", opts.typescript))
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}

	cmd := exec.CommandContext(server.Context(), node, args...)
	// Policy packs run in their own folder (upstream does the same, for compatibility).
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return fmt.Errorf("policy pack exited with non-zero exit code: %d", exitErr.ExitCode())
		}
		return fmt.Errorf("problem executing policy pack (could not run node): %w", err)
	}
	return closer.Close()
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// packageJSON is the part of a package.json this host reads.
type packageJSON struct {
	Name            string                  `json:"name"`
	Version         string                  `json:"version"`
	Pulumi          plugin.PulumiPluginJSON `json:"pulumi"`
	Dependencies    map[string]string       `json:"dependencies"`
	DevDependencies map[string]string       `json:"devDependencies"`
}

func readPackageJSON(path string) (*packageJSON, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p packageJSON
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &p, nil
}

// findNodeModules returns the nearest node_modules directory at or above dir, as Node resolves.
func findNodeModules(dir string) string {
	for d := dir; ; {
		nm := filepath.Join(d, "node_modules")
		if fi, err := os.Stat(nm); err == nil && fi.IsDir() {
			return nm
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// walkPackages calls fn for every package directory under nodeModules, including scoped and
// nested node_modules packages.
func walkPackages(nodeModules string, fn func(dir string), seen map[string]bool) {
	real, err := filepath.EvalSymlinks(nodeModules)
	if err != nil || seen[real] {
		return
	}
	seen[real] = true
	entries, err := os.ReadDir(nodeModules)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(nodeModules, name)
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			continue
		}
		if strings.HasPrefix(name, "@") {
			walkPackages(p, fn, seen)
			continue
		}
		fn(p)
		walkPackages(filepath.Join(p, "node_modules"), fn, seen)
	}
}

func pluginName(p *packageJSON) string {
	if p.Pulumi.Name != "" {
		return p.Pulumi.Name
	}
	if strings.HasPrefix(p.Name, "@pulumi/") {
		return strings.TrimPrefix(p.Name, "@pulumi/")
	}
	return strings.TrimPrefix(p.Name, "@")
}

func pluginVersion(p *packageJSON) string {
	v := p.Pulumi.Version
	if v == "" {
		v = p.Version
	}
	if v != "" && !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	return v
}

func (host *nodeLanguageHost) GetRequiredPlugins(
	_ context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetProgram()
	}
	var plugins []*pulumirpc.PluginDependency
	found := map[string]bool{}
	if nm := findNodeModules(dir); nm != "" {
		walkPackages(nm, func(pkgDir string) {
			p, err := readPackageJSON(filepath.Join(pkgDir, "package.json"))
			if err != nil || !p.Pulumi.Resource || p.Pulumi.Parameterization != nil {
				return
			}
			name, ver := pluginName(p), pluginVersion(p)
			if name == "" || ver == "" || found[name+"@"+ver] {
				return
			}
			found[name+"@"+ver] = true
			plugins = append(plugins, &pulumirpc.PluginDependency{
				Name: name, Kind: "resource", Version: ver, Server: p.Pulumi.Server,
			})
		}, map[string]bool{})
	}
	sort.Slice(plugins, func(i, j int) bool {
		return plugins[i].Name+plugins[i].Version < plugins[j].Name+plugins[j].Version
	})
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

func (host *nodeLanguageHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := lookupNode()
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("failed to run node --version: %w", err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
	}, nil
}

func (host *nodeLanguageHost) GetProgramDependencies(
	_ context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetProgram()
	}
	p, err := readPackageJSON(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(p.Dependencies)+len(p.DevDependencies))
	for n := range p.Dependencies {
		names = append(names, n)
	}
	for n := range p.DevDependencies {
		names = append(names, n)
	}
	sort.Strings(names)
	nm := findNodeModules(dir)
	var deps []*pulumirpc.DependencyInfo
	for _, n := range names {
		version := p.Dependencies[n]
		if version == "" {
			version = p.DevDependencies[n]
		}
		if nm != "" {
			if installed, err := readPackageJSON(filepath.Join(nm, n, "package.json")); err == nil {
				version = installed.Version
			}
		}
		deps = append(deps, &pulumirpc.DependencyInfo{Name: n, Version: version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// streamWriter forwards command output to an InstallDependencies stream.
type streamWriter struct {
	mu     *sync.Mutex
	stream grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]
	stderr bool
}

func (w streamWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data := append([]byte(nil), p...)
	resp := &pulumirpc.InstallDependenciesResponse{Stdout: data}
	if w.stderr {
		resp = &pulumirpc.InstallDependenciesResponse{Stderr: data}
	}
	if err := w.stream.Send(resp); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (host *nodeLanguageHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest,
	stream grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory()
	}
	pm := parseOptions(req.GetInfo().GetOptions()).packagemanager
	if pm == "" {
		switch {
		case exists(filepath.Join(dir, "pnpm-lock.yaml")):
			pm = "pnpm"
		case exists(filepath.Join(dir, "yarn.lock")):
			pm = "yarn"
		default:
			pm = "npm"
		}
	}
	bin, err := exec.LookPath(pm)
	if err != nil {
		return fmt.Errorf("could not find %s on the $PATH: %w", pm, err)
	}
	var mu sync.Mutex
	cmd := exec.CommandContext(stream.Context(), bin, "install")
	cmd.Dir = dir
	cmd.Stdout = io.Writer(streamWriter{mu: &mu, stream: stream})
	cmd.Stderr = io.Writer(streamWriter{mu: &mu, stream: stream, stderr: true})
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s install failed: %w", pm, err)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
