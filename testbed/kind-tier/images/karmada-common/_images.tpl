{{/*
iko-plus stand-in for the two templates of Bitnami's common chart (2.x, templates/_images.tpl)
that Karmada's chart includes, with the same inputs and output.

common.images.image: "<registry>/<repository>:<tag>" (or "@<digest>"); global.imageRegistry
overrides the registry; an empty registry leaves it out.
Usage: {{ include "common.images.image" (dict "imageRoot" .Values.x.image "global" .Values.global) }}
*/}}
{{- define "common.images.image" -}}
{{- $registryName := default .imageRoot.registry ((.global).imageRegistry) -}}
{{- $repositoryName := .imageRoot.repository -}}
{{- $separator := ":" -}}
{{- $termination := .imageRoot.tag | toString -}}
{{- if not .imageRoot.tag }}
  {{- if .chart }}
    {{- $termination = .chart.AppVersion | toString -}}
  {{- end -}}
{{- end -}}
{{- if .imageRoot.digest }}
  {{- $separator = "@" -}}
  {{- $termination = .imageRoot.digest | toString -}}
{{- end -}}
{{- if $registryName }}
  {{- printf "%s/%s%s%s" $registryName $repositoryName $separator $termination -}}
{{- else -}}
  {{- printf "%s%s%s" $repositoryName $separator $termination -}}
{{- end -}}
{{- end -}}

{{/*
common.images.pullSecrets: an imagePullSecrets block of global.imagePullSecrets and each image's
pullSecrets (names or {name: ...}), without duplicates; nothing when there are none.
Usage: {{ include "common.images.pullSecrets" (dict "images" (list .Values.x.image) "global" .Values.global) }}
*/}}
{{- define "common.images.pullSecrets" -}}
{{- $pullSecrets := list }}
{{- range ((.global).imagePullSecrets) -}}
  {{- if kindIs "map" . -}}
    {{- $pullSecrets = append $pullSecrets .name -}}
  {{- else -}}
    {{- $pullSecrets = append $pullSecrets . -}}
  {{- end }}
{{- end -}}
{{- range .images -}}
  {{- range .pullSecrets -}}
    {{- if kindIs "map" . -}}
      {{- $pullSecrets = append $pullSecrets .name -}}
    {{- else -}}
      {{- $pullSecrets = append $pullSecrets . -}}
    {{- end -}}
  {{- end -}}
{{- end -}}
{{- if (not (empty $pullSecrets)) }}
imagePullSecrets:
  {{- range $pullSecrets | uniq }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- end -}}
