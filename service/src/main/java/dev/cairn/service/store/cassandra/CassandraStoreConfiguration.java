package dev.cairn.service.store.cassandra;

import dev.cairn.service.CairnProperties;
import dev.cairn.service.store.ObjectStore;
import java.io.IOException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The Cassandra store, when {@code cairn.store=cassandra}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "cairn.store", havingValue = CairnProperties.STORE_CASSANDRA)
public class CassandraStoreConfiguration {

    @Bean(destroyMethod = "close")
    public ObjectStore cassandraObjectStore(CairnProperties props) throws IOException {
        props.validate();
        return CassandraObjectStore.open(props.getCassandra());
    }
}
