# syntax=docker/dockerfile:1
# Cairn's image: the S3 service and the backup job (cairn-backup), on a JRE, as user 10001.
# Everything it writes goes to /var/lib/cairn/* and /tmp, so the root file system can be
# read-only (the chart mounts volumes there). Without settings the data directory is
# /var/lib/cairn/data (the working directory's "data"); no cairn.* setting is fixed here, since
# the environment would override the chart's configuration file. Build from the repository's root:
#   docker build -t cairn:0.1.0 .
# docs/helm.md explains building and pushing it.

ARG JDK_IMAGE=eclipse-temurin:17-jdk
ARG JRE_IMAGE=eclipse-temurin:17-jre

FROM ${JDK_IMAGE} AS build
WORKDIR /src
COPY . .
# The wrapper bootstraps the pinned Maven from the machine's Maven when it has none.
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends maven \
 && rm -rf /var/lib/apt/lists/*
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -ntp -DskipTests package -pl service,backup-dc -am

FROM ${JRE_IMAGE} AS runtime
# libvips renders image variants (docs/variants.md); Ubuntu 24.04 (the JRE image's base) names
# its package libvips42t64, Debian 12 libvips42.
RUN apt-get update -qq \
 && (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libvips42t64 \
     || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libvips42) \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 cairn \
 && useradd --system --uid 10001 --gid cairn --home-dir /var/lib/cairn --shell /usr/sbin/nologin cairn \
 && mkdir -p /var/lib/cairn/fast /var/lib/cairn/capacity /var/lib/cairn/data /etc/cairn/config \
 && chown -R cairn:cairn /var/lib/cairn
COPY --from=build /src/service/target/cairn-service.jar /opt/cairn/cairn-service.jar
COPY --from=build /src/backup-dc/target/cairn-backup.jar /opt/cairn/backup/cairn-backup.jar
COPY --from=build /src/backup-dc/target/lib/ /opt/cairn/backup/lib/
COPY helm/image/cairn-backup /opt/cairn/bin/cairn-backup
ENV PATH=/opt/cairn/bin:$PATH
USER 10001:10001
WORKDIR /var/lib/cairn
VOLUME ["/var/lib/cairn/fast", "/var/lib/cairn/capacity", "/var/lib/cairn/data", "/tmp"]
EXPOSE 9000
# bash's /dev/tcp: the JRE image has no HTTP client, and a JVM per check would cost more.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/9000 && printf 'GET /actuator/health/readiness HTTP/1.0\\r\\nHost: 127.0.0.1\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["java", "-XX:+ExitOnOutOfMemoryError", "-jar", "/opt/cairn/cairn-service.jar"]
