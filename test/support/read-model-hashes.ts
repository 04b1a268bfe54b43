// The row hashes of the read models live with the soak script, which compares them too.
export * from '../../bench/support/read-model-hashes';
