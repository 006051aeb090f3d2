// Not built: vqm_doc_snippets exists for its usage requirements (tests/docs/CMakeLists.txt).
int main() {}
