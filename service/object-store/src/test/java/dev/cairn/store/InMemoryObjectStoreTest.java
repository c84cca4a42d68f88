package dev.cairn.store;

class InMemoryObjectStoreTest extends ObjectStoreContractTest {
    @Override
    protected ObjectStore open() {
        return new InMemoryObjectStore();
    }
}
