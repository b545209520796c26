# httpvs as a container image: a static binary on a distroless base (no
# shell, no package manager, runs as an unprivileged user). Used by
# deploy/k8s/ for `httpvs serve` and for `httpvs load` generators.
#
#   docker build -t REGISTRY/httpvs:TAG . && docker push REGISTRY/httpvs:TAG
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /httpvs ./cmd/httpvs

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /httpvs /httpvs
# Numeric: Kubernetes cannot verify runAsNonRoot for a user given by name.
USER 65532:65532
ENTRYPOINT ["/httpvs"]
