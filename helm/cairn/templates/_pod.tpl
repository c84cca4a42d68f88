{{/* The service's pod, shared by the StatefulSet (embedded) and the Deployment (cassandra). */}}
{{- define "cairn.podTemplate" -}}
{{- $v := .Values -}}
metadata:
  labels:
    {{- include "cairn.labels" . | nindent 4 }}
    app.kubernetes.io/component: server
    {{- with $v.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  annotations:
    checksum/config: {{ include (print $.Template.BasePath "/configmap.yaml") . | sha256sum }}
    {{- with $v.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  serviceAccountName: {{ include "cairn.serviceAccountName" . }}
  automountServiceAccountToken: {{ $v.serviceAccount.automountServiceAccountToken }}
  {{- with $v.imagePullSecrets }}
  imagePullSecrets:
    {{- range . }}
    - name: {{ . }}
    {{- end }}
  {{- end }}
  {{- with $v.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  securityContext:
    {{- toYaml $v.podSecurityContext | nindent 4 }}
  terminationGracePeriodSeconds: {{ $v.terminationGracePeriodSeconds }}
  {{- with $v.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $v.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- if $v.affinity }}
  affinity:
    {{- toYaml $v.affinity | nindent 4 }}
  {{- else if eq $v.mode "cassandra" }}
  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 100
          podAffinityTerm:
            topologyKey: kubernetes.io/hostname
            labelSelector:
              matchLabels:
                {{- include "cairn.serverSelectorLabels" . | nindent 16 }}
  {{- end }}
  {{- with $v.topologySpreadConstraints }}
  topologySpreadConstraints:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  containers:
    - name: cairn
      image: {{ include "cairn.image" . }}
      imagePullPolicy: {{ $v.image.pullPolicy }}
      args:
        - --spring.config.additional-location=file:{{ include "cairn.configDir" . }}/application.yaml
      env:
        - name: JAVA_TOOL_OPTIONS
          value: {{ trim (printf "-XX:MaxRAMPercentage=%v %s" $v.jvm.maxRamPercentage $v.jvm.extraOptions) | quote }}
        - name: CAIRN_AUTH_ACCESSKEY
          valueFrom:
            secretKeyRef:
              name: {{ include "cairn.authSecretName" . }}
              key: {{ include "cairn.authAccessKeyKey" . }}
        - name: CAIRN_AUTH_SECRETKEY
          valueFrom:
            secretKeyRef:
              name: {{ include "cairn.authSecretName" . }}
              key: {{ include "cairn.authSecretKeyKey" . }}
        {{- if and (eq $v.mode "cassandra") $v.cassandra.auth.enabled }}
        - name: CAIRN_CASSANDRA_USERNAME
          valueFrom:
            secretKeyRef:
              name: {{ include "cairn.cassandraSecretName" . }}
              key: {{ include "cairn.cassandraUsernameKey" . }}
        - name: CAIRN_CASSANDRA_PASSWORD
          valueFrom:
            secretKeyRef:
              name: {{ include "cairn.cassandraSecretName" . }}
              key: {{ include "cairn.cassandraPasswordKey" . }}
        {{- end }}
        {{- with $v.extraEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      ports:
        - name: http
          containerPort: {{ $v.service.port }}
          protocol: TCP
        {{- if $v.metrics.managementPort }}
        - name: management
          containerPort: {{ $v.metrics.managementPort }}
          protocol: TCP
        {{- end }}
      startupProbe:
        httpGet:
          path: /actuator/health/liveness
          port: {{ include "cairn.actuatorPort" . }}
          scheme: {{ include "cairn.actuatorScheme" . }}
        periodSeconds: {{ $v.probes.startup.periodSeconds }}
        failureThreshold: {{ $v.probes.startup.failureThreshold }}
      livenessProbe:
        httpGet:
          path: /actuator/health/liveness
          port: {{ include "cairn.actuatorPort" . }}
          scheme: {{ include "cairn.actuatorScheme" . }}
        periodSeconds: {{ $v.probes.liveness.periodSeconds }}
        timeoutSeconds: {{ $v.probes.liveness.timeoutSeconds }}
        failureThreshold: {{ $v.probes.liveness.failureThreshold }}
      readinessProbe:
        httpGet:
          path: /actuator/health/readiness
          port: {{ include "cairn.actuatorPort" . }}
          scheme: {{ include "cairn.actuatorScheme" . }}
        periodSeconds: {{ $v.probes.readiness.periodSeconds }}
        timeoutSeconds: {{ $v.probes.readiness.timeoutSeconds }}
        failureThreshold: {{ $v.probes.readiness.failureThreshold }}
      resources:
        {{- toYaml $v.resources | nindent 8 }}
      securityContext:
        {{- toYaml $v.containerSecurityContext | nindent 8 }}
      volumeMounts:
        - name: config
          mountPath: {{ include "cairn.configDir" . }}
          readOnly: true
        - name: tmp
          mountPath: /tmp
        {{- if eq $v.mode "embedded" }}
        - name: fast
          mountPath: {{ include "cairn.fastDir" . }}
        {{- if $v.embedded.persistence.capacity.enabled }}
        - name: capacity
          mountPath: {{ include "cairn.capacityDir" . }}
        {{- end }}
        {{- else }}
        - name: data
          mountPath: {{ include "cairn.dataDir" . }}
        {{- end }}
        {{- if $v.auth.credentialsFile.existingSecret }}
        - name: credentials-file
          mountPath: {{ dir (include "cairn.credentialsFilePath" .) }}
          readOnly: true
        {{- end }}
        {{- if $v.auth.keysFile.existingSecret }}
        {{- /* The directory, not a subPath: Kubernetes updates a secret volume in place, a subPath never. */}}
        - name: keys-file
          mountPath: {{ include "cairn.keysDir" . }}
          readOnly: true
        {{- end }}
        {{- if $v.tls.existingSecret }}
        - name: tls
          mountPath: {{ include "cairn.tlsDir" . }}
          readOnly: true
        {{- end }}
  volumes:
    - name: config
      configMap:
        name: {{ include "cairn.fullname" . }}
    - name: tmp
      emptyDir:
        sizeLimit: {{ $v.tmpSizeLimit }}
    {{- if eq $v.mode "cassandra" }}
    {{- if $v.cassandra.scratch.storageClass }}
    - name: data
      ephemeral:
        volumeClaimTemplate:
          metadata:
            labels:
              {{- include "cairn.selectorLabels" . | nindent 14 }}
          spec:
            accessModes: [ReadWriteOnce]
            storageClassName: {{ $v.cassandra.scratch.storageClass }}
            resources:
              requests:
                storage: {{ $v.cassandra.scratch.size }}
    {{- else }}
    - name: data
      emptyDir:
        sizeLimit: {{ $v.cassandra.scratch.size }}
    {{- end }}
    {{- end }}
    {{- if $v.auth.credentialsFile.existingSecret }}
    - name: credentials-file
      secret:
        secretName: {{ $v.auth.credentialsFile.existingSecret }}
        defaultMode: 0440
        items:
          - key: {{ $v.auth.credentialsFile.key }}
            path: {{ base (include "cairn.credentialsFilePath" .) }}
    {{- end }}
    {{- if $v.auth.keysFile.existingSecret }}
    - name: keys-file
      secret:
        secretName: {{ $v.auth.keysFile.existingSecret }}
        defaultMode: 0440
        items:
          - key: {{ $v.auth.keysFile.key }}
            path: {{ $v.auth.keysFile.key }}
    {{- end }}
    {{- if $v.tls.existingSecret }}
    - name: tls
      secret:
        secretName: {{ $v.tls.existingSecret }}
        defaultMode: 0440
        items:
          - key: {{ $v.tls.certificateKey }}
            path: {{ $v.tls.certificateKey }}
          - key: {{ $v.tls.privateKeyKey }}
            path: {{ $v.tls.privateKeyKey }}
    {{- end }}
{{- end -}}
