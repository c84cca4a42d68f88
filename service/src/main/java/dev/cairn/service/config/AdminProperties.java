package dev.cairn.service.config;

import static dev.cairn.service.config.CairnProperties.require;

import java.time.Duration;

/** The admin endpoint ({@code /_admin/...}): engine checkpoints for backups. */
public class AdminProperties {
    /**
     * How long a checkpoint is kept when the job that took it never releases it (a crashed
     * backup); the service then deletes it.
     */
    private Duration checkpointLease = Duration.ofHours(6);

    public Duration getCheckpointLease() {
        return checkpointLease;
    }

    public void setCheckpointLease(Duration v) {
        checkpointLease = v;
    }

    void validate() {
        require(checkpointLease != null && checkpointLease.toSeconds() >= 1,
                "cairn.admin.checkpoint-lease must be at least 1s");
    }
}
