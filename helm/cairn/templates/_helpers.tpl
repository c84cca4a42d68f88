{{/* Names, labels and the values checks shared by every template. */}}

{{- define "cairn.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "cairn.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "cairn.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cairn.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "cairn.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "cairn.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The service's pods: selector labels plus the component. */}}
{{- define "cairn.serverSelectorLabels" -}}
{{ include "cairn.selectorLabels" . }}
app.kubernetes.io/component: server
{{- end -}}

{{- define "cairn.backupSelectorLabels" -}}
{{ include "cairn.selectorLabels" . }}
app.kubernetes.io/component: backup
{{- end -}}

{{- define "cairn.annotations" -}}
{{- with .Values.commonAnnotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{- define "cairn.image" -}}
{{- $repo := .Values.image.repository -}}
{{- if .Values.image.registry -}}{{- $repo = printf "%s/%s" .Values.image.registry $repo -}}{{- end -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repo .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repo (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{- define "cairn.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "cairn.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Paths inside the container. The backup job mounts the same volumes at the same paths. */}}
{{- define "cairn.configDir" -}}/etc/cairn/config{{- end -}}
{{- define "cairn.fastDir" -}}/var/lib/cairn/fast{{- end -}}
{{- define "cairn.capacityDir" -}}/var/lib/cairn/capacity{{- end -}}
{{- define "cairn.dataDir" -}}/var/lib/cairn/data{{- end -}}
{{- define "cairn.credentialsFilePath" -}}/etc/cairn/credentials/credentials.properties{{- end -}}
{{- define "cairn.keysDir" -}}/etc/cairn/keys{{- end -}}
{{- define "cairn.tlsDir" -}}/etc/cairn/tls{{- end -}}
{{- define "cairn.serviceCaDir" -}}/etc/cairn/service-ca{{- end -}}

{{/* The S3 endpoint inside the cluster, as the backup job calls it; the certificate must name its host. */}}
{{- define "cairn.serviceUrl" -}}
{{- printf "%s://%s.%s.svc:%v" (ternary "https" "http" (not (empty .Values.tls.existingSecret))) (include "cairn.fullname" .) .Release.Namespace .Values.service.port -}}
{{- end -}}

{{/* The port the probes and the ServiceMonitor reach the actuator on, by name. */}}
{{- define "cairn.actuatorPort" -}}
{{- if .Values.metrics.managementPort -}}management{{- else -}}http{{- end -}}
{{- end -}}

{{/* The actuator's scheme: HTTPS on the S3 port with TLS; the management port is plain HTTP. */}}
{{- define "cairn.actuatorScheme" -}}
{{- if and .Values.tls.existingSecret (not .Values.metrics.managementPort) -}}HTTPS{{- else -}}HTTP{{- end -}}
{{- end -}}

{{/* The S3 credentials: the operator's Secret, or the chart's. */}}
{{- define "cairn.authSecretName" -}}
{{- default (printf "%s-auth" (include "cairn.fullname" .)) .Values.auth.existingSecret -}}
{{- end -}}
{{- define "cairn.authAccessKeyKey" -}}
{{- if .Values.auth.existingSecret }}{{ .Values.auth.existingSecretKeys.accessKey }}{{ else }}access-key{{ end -}}
{{- end -}}
{{- define "cairn.authSecretKeyKey" -}}
{{- if .Values.auth.existingSecret }}{{ .Values.auth.existingSecretKeys.secretKey }}{{ else }}secret-key{{ end -}}
{{- end -}}

{{- define "cairn.cassandraSecretName" -}}
{{- default (printf "%s-cassandra" (include "cairn.fullname" .)) .Values.cassandra.auth.existingSecret -}}
{{- end -}}
{{- define "cairn.cassandraUsernameKey" -}}
{{- if .Values.cassandra.auth.existingSecret }}{{ .Values.cassandra.auth.existingSecretKeys.username }}{{ else }}username{{ end -}}
{{- end -}}
{{- define "cairn.cassandraPasswordKey" -}}
{{- if .Values.cassandra.auth.existingSecret }}{{ .Values.cassandra.auth.existingSecretKeys.password }}{{ else }}password{{ end -}}
{{- end -}}

{{/*
Sets key in the dict to value unless the value is left empty ("", nil, [] or {}): an empty value in
values.yaml leaves the setting to the service's own default, written once in the service.
Arguments: (list dict key value).
*/}}
{{- define "cairn.putIfSet" -}}
{{- $value := index . 2 -}}
{{- $unset := or (kindIs "invalid" $value) (and (kindIs "string" $value) (eq $value "")) (and (or (kindIs "slice" $value) (kindIs "map" $value)) (empty $value)) -}}
{{- if not $unset -}}
{{- $_ := set (index . 0) (index . 1) $value -}}
{{- end -}}
{{- end -}}

{{/* Ports named in host:port lists, as a sorted, de-duplicated list of numbers. */}}
{{- define "cairn.portsOf" -}}
{{- $ports := list -}}
{{- range . -}}
{{- $ports = append $ports (int (last (splitList ":" .))) -}}
{{- end -}}
{{- toJson (uniq $ports | sortAlpha) -}}
{{- end -}}

{{/* The port of an http(s) URL: explicit, or the scheme's. */}}
{{- define "cairn.urlPort" -}}
{{- $u := urlParse . -}}
{{- $hostPort := splitList ":" $u.host -}}
{{- if gt (len $hostPort) 1 -}}{{ last $hostPort }}{{- else if eq $u.scheme "http" -}}80{{- else -}}443{{- end -}}
{{- end -}}

{{/*
Checks that span several values (values.schema.json checks each value on its own). Each
message names the values to change.
*/}}
{{- define "cairn.validate" -}}
{{- $v := .Values -}}
{{- $errors := list -}}
{{- if eq $v.mode "cassandra" -}}
  {{- if empty $v.cassandra.contactPoints -}}
    {{- $errors = append $errors "mode cassandra needs cassandra.contactPoints (host:port of nodes of the serving datacenter)" -}}
  {{- end -}}
  {{- if not (hasKey $v.cassandra.replication $v.cassandra.localDatacenter) -}}
    {{- $errors = append $errors (printf "cassandra.replication must place replicas in cassandra.localDatacenter %q" $v.cassandra.localDatacenter) -}}
  {{- end -}}
  {{- if and $v.backup.enabled (not (hasKey $v.cassandra.replication $v.cassandra.backupDatacenter)) -}}
    {{- $errors = append $errors (printf "backup.enabled reads datacenter %q (cassandra.backupDatacenter), which cassandra.replication gives no replica" $v.cassandra.backupDatacenter) -}}
  {{- end -}}
  {{- if eq $v.cassandra.localDatacenter $v.cassandra.backupDatacenter -}}
    {{- $errors = append $errors "cassandra.backupDatacenter must differ from cassandra.localDatacenter: backups must not scan the serving datacenter" -}}
  {{- end -}}
  {{- if and (gt (int $v.cassandra.replicaCount) 1) (ne (toString $v.cassandra.rowCache.memorySize) "0") (not $v.cassandra.redis.enabled) -}}
    {{- $errors = append $errors "cassandra.replicaCount > 1 with a row cache needs cassandra.redis.enabled (else one replica serves rows another has changed); or set cassandra.rowCache.memorySize to 0" -}}
  {{- end -}}
  {{- if and $v.cassandra.redis.enabled (empty $v.cassandra.redis.address) -}}
    {{- $errors = append $errors "cassandra.redis.enabled needs cassandra.redis.address (host:port)" -}}
  {{- end -}}
  {{- if and $v.cassandra.auth.enabled (not $v.cassandra.auth.existingSecret) (or (empty $v.cassandra.auth.username) (empty $v.cassandra.auth.password)) -}}
    {{- $errors = append $errors "cassandra.auth.enabled needs cassandra.auth.existingSecret, or both cassandra.auth.username and cassandra.auth.password" -}}
  {{- end -}}
{{- end -}}
{{- if and $v.serviceMonitor.enabled (not $v.metrics.managementPort) (not $v.serviceMonitor.basicAuth.existingSecret) -}}
  {{- $errors = append $errors "serviceMonitor.enabled on the S3 port needs serviceMonitor.basicAuth.existingSecret (a key of the metrics role: the actuator refuses anonymous scrapes), or metrics.managementPort" -}}
{{- end -}}
{{- if and $v.metrics.managementPort (eq (int $v.metrics.managementPort) (int $v.service.port)) -}}
  {{- $errors = append $errors "metrics.managementPort must differ from service.port" -}}
{{- end -}}
{{- if and (not $v.auth.existingSecret) (ne (empty $v.auth.accessKey) (empty $v.auth.secretKey)) -}}
  {{- $errors = append $errors "auth.accessKey and auth.secretKey must be set together (or both left empty to generate a pair)" -}}
{{- end -}}
{{- if $v.pdb.enabled -}}
  {{- $min := toString $v.pdb.minAvailable -}}
  {{- $max := toString $v.pdb.maxUnavailable -}}
  {{- if and (ne $min "") (ne $max "") -}}
    {{- $errors = append $errors "pdb: set pdb.minAvailable or pdb.maxUnavailable, not both" -}}
  {{- end -}}
{{- end -}}
{{- if and $v.backup.enabled (eq $v.mode "embedded") -}}
  {{- /* The backup job's pod mounts the service pod's claims (docs/helm.md, "Backups"). */ -}}
  {{- range $tier := list "fast" "capacity" -}}
    {{- $claim := get $v.embedded.persistence $tier -}}
    {{- if and (or (eq $tier "fast") $claim.enabled) (has "ReadWriteOncePod" $claim.accessModes) -}}
      {{- $errors = append $errors (printf "backup.enabled in mode embedded mounts the service's %s claim in the backup job's pod, but embedded.persistence.%s.accessModes ReadWriteOncePod lets only one pod use it: the backup pod would stay Pending. Use ReadWriteOnce, or turn backup.enabled off" $tier $tier) -}}
    {{- end -}}
  {{- end -}}
{{- end -}}
{{- if $v.backup.enabled -}}
  {{- if and (eq $v.backup.target.type "dir") (empty $v.backup.target.dir.existingClaim) -}}
    {{- $errors = append $errors "backup.target.type dir needs backup.target.dir.existingClaim (the volume claim the backups go to)" -}}
  {{- end -}}
  {{- if eq $v.backup.target.type "s3" -}}
    {{- if not (regexMatch "^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/.*)?$" $v.backup.target.s3.url) -}}
      {{- $errors = append $errors (printf "backup.target.s3.url must look like s3://bucket/prefix, got %q" $v.backup.target.s3.url) -}}
    {{- end -}}
    {{- if empty $v.backup.target.s3.existingSecret -}}
      {{- $errors = append $errors "backup.target.type s3 needs backup.target.s3.existingSecret (the target's access key pair)" -}}
    {{- end -}}
  {{- end -}}
{{- end -}}
{{- if $errors -}}
{{- fail (printf "\n\nVALUES ERROR:\n  - %s\n" (join "\n  - " $errors)) -}}
{{- end -}}
{{- end -}}
