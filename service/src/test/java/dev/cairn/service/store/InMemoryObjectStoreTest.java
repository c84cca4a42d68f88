package dev.cairn.service.store;

class InMemoryObjectStoreTest extends ObjectStoreContractTest {
    @Override
    protected ObjectStore open() {
        return new InMemoryObjectStore();
    }
}
