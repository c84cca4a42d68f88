package dev.cairn.service;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The S3-compatible service. */
@SpringBootApplication
public class CairnApplication {
    public static void main(String[] args) {
        SpringApplication.run(CairnApplication.class, args);
    }
}
