{{/* The objects' name: the release's, unless fullnameOverride. */}}
{{- define "coder-storage.fullname" -}}
{{ .Values.fullnameOverride | default .Release.Name }}
{{- end }}

{{- define "coder-storage.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "coder-storage.labels" -}}
{{ include "coder-storage.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* An explicit tag always: the chart's appVersion unless image.tag. */}}
{{- define "coder-storage.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* The variables every container of the chart takes from the Secret; never values of the chart. */}}
{{- define "coder-storage.secretEnv" -}}
- name: NEXT_TELEMETRY_DISABLED
  value: "1"
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "secrets.existingSecret: the Secret holding DATABASE_URL" .Values.secrets.existingSecret }}
      key: {{ required "secrets.databaseUrlKey: the chart runs on PostgreSQL only" .Values.secrets.databaseUrlKey }}
{{- with .Values.secrets.authSecretKey }}
- name: BETTER_AUTH_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $.Values.secrets.existingSecret }}
      key: {{ . }}
{{- end }}
{{- with .Values.secrets.enrollmentKeyKey }}
- name: STORAGE_ENROLLMENT_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $.Values.secrets.existingSecret }}
      key: {{ . }}
{{- end }}
{{- range .Values.secrets.extraEnv }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ $.Values.secrets.existingSecret }}
      key: {{ .key }}
{{- end }}
{{- end }}
