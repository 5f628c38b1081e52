echo x
