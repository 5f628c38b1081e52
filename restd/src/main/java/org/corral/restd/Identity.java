package org.corral.restd;

/**
 * Who a REST request is for: a user named by a verified JWT ({@code uid} -1: the controller
 * resolves the name), or a local Unix-socket client known by its kernel uid (rest_auth/local).
 */
record Identity(String userName, int uid) {
  static Identity named(String userName) {
    return new Identity(userName, -1);
  }

  boolean byUid() {
    return uid >= 0;
  }
}
